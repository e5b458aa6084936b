import { cpSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Dockerfile } from './dockerfile';

/** Where an image's files come from outside Docker: the build context, and what `npm run build` wrote. */
export interface ImageSources {
  context: string;
  buildOutput: string;
}

/** What a build stage adds to the context it copied, keyed by the path it appears at and the command that makes it. */
const STAGE_PRODUCTS: Array<{
  path: string;
  madeBy: string;
  from: (sources: ImageSources, rest: string) => string;
}> = [
  { path: 'dist', madeBy: 'npm run build', from: (sources, rest) => path.join(sources.buildOutput, rest) },
  // The suite's setup materializes the models in the repository, as the stage's command does in the image.
  {
    path: 'models',
    madeBy: 'npm run models:materialize',
    from: (sources, rest) => path.join(sources.context, 'models', rest),
  },
];

function fromBuildStage(dockerfile: Dockerfile, stageName: string, source: string, sources: ImageSources): string {
  const stage = dockerfile.stages.find((s) => s.name === stageName);
  if (!stage) throw new Error(`${dockerfile.file}: COPY --from=${stageName} names no stage`);
  if (!stage.copies.some((copy) => !copy.from && copy.sources.includes('.'))) {
    throw new Error(`${dockerfile.file}: stage ${stageName} does not start from the whole context (COPY . .)`);
  }
  const relative = path.posix.relative(stage.workdir, path.posix.resolve(stage.workdir, source));
  const [head, ...rest] = relative.split('/');
  const product = STAGE_PRODUCTS.find((p) => p.path === head);
  if (product && !stage.runs.some((run) => run.includes(product.madeBy))) {
    throw new Error(`${dockerfile.file}: stage ${stageName} never runs "${product.madeBy}", so it has no ${head}/`);
  }
  return product ? product.from(sources, rest.join('/')) : path.join(sources.context, relative);
}

/**
 * Copies exactly what the final stage's COPY instructions put in the image into `into` (which
 * stands for the stage's WORKDIR): nothing else of the repository is there for the code to find.
 */
export function assembleFinalStage(dockerfile: Dockerfile, sources: ImageSources, into: string): void {
  const stage = dockerfile.final;
  for (const copy of stage.copies) {
    const destination = path.join(
      into,
      path.posix.relative(stage.workdir, path.posix.resolve(stage.workdir, copy.destination)),
    );
    const intoFolder = copy.destination.endsWith('/') || copy.sources.length > 1;
    for (const source of copy.sources) {
      const origin = copy.from
        ? fromBuildStage(dockerfile, copy.from, source, sources)
        : path.join(sources.context, source);
      if (!existsSync(origin)) throw new Error(`${dockerfile.file}: COPY ${source} has nothing at ${origin}`);
      const target = intoFolder ? path.join(destination, path.basename(origin)) : destination;
      mkdirSync(path.dirname(target), { recursive: true });
      cpSync(origin, target, { recursive: true });
    }
  }
}
