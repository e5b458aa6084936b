import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';

const AXE = path.join(path.dirname(require.resolve('axe-core/package.json')), 'axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

/**
 * Runs axe-core inside the page and returns the serious and critical violations, each as
 * "rule: help (targets)" so a failing test says what to fix.
 */
export async function seriousViolations(page: Page | Frame): Promise<string[]> {
  // Evaluated over the DevTools protocol: an injected <script> would be (rightly) blocked by the page's CSP.
  await page.evaluate(readFileSync(AXE, 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.targets.join(', ')})`);
}
