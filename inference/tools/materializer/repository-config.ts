/**
 * config.json as the materializer reads it: the declared config plus the provenance the
 * runtime never needs (where each copied asset comes from, how converted tensors are renamed).
 * The inference loader ignores these extra source fields.
 */
import type { DeclaredModelConfig } from '../../src/repository/model-config';

export interface AssetSource {
  /** Path inside the source package. */
  path: string;
  sha256: string;
}

export interface PackageSource {
  package: string;
  package_version: string;
  /** Path inside the package of the model file (an .onnx to copy, or a TFJS model.json to convert). */
  path: string;
  /** Absent: copy the file as is. Otherwise the name of a converter in converters.ts. */
  conversion?: string;
  /** Where the weights were first published, for the provenance table. */
  upstream?: string;
  /** Files placed beside the model, by their name in the version folder. */
  assets?: Record<string, AssetSource>;
  /** Converted models only: a TFJS signature key (or tensor name) → the ONNX input/output name. */
  tensor_names?: Record<string, string>;
}

/**
 * A model no package carries, converted once by a tool in this repository and committed with its
 * licence and provenance: `committed` is its path from the repository root. Materialize copies it
 * into the version folder and checks the pinned sha256, as for a package file.
 */
export interface CommittedSource {
  committed: string;
  upstream?: string;
  path?: undefined;
  conversion?: undefined;
  assets?: undefined;
}

export type MaterializeSource = PackageSource | CommittedSource;

export type RepositoryConfig = Omit<DeclaredModelConfig, 'source'> & { source: MaterializeSource };

export function isCommitted(source: MaterializeSource): source is CommittedSource {
  return typeof (source as CommittedSource).committed === 'string';
}
