import { SanctionsScreening } from '../../ports/sanctions-screening';
import { Person, SanctionsVerdict } from '../../session-status';

/**
 * The sandbox specimen screened for real against the loaded lists, as a captured document would
 * be: SKIPPED with no list loaded or no document read, never an assumed CLEAR.
 */
export async function screenSpecimen(sanctions: SanctionsScreening, person: Person | null): Promise<SanctionsVerdict> {
  if (!person) return 'SKIPPED';
  const outcome = await sanctions.screen({
    name: person.name,
    dob: person.dob,
    nationality: person.document_country,
  });
  return outcome.verdict;
}
