import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(__dirname, '..');
export const WEB_DIST = path.join(ROOT, 'hosted', 'public', 'dist');

/**
 * Bundles the browser TypeScript (no CDN, no framework): the capture flow as /hosted/dist/flow.js and
 * the widget as /widget.js. Run at set-up; takes well under a second.
 */
export async function buildWeb(): Promise<void> {
  await build({
    entryPoints: {
      flow: path.join(ROOT, 'hosted/web/main.ts'),
      widget: path.join(ROOT, 'hosted/web/widget-global.ts'),
    },
    outdir: WEB_DIST,
    bundle: true,
    minify: true,
    format: 'iife',
    // Safari 15 (iOS 15) is the oldest phone browser with the camera APIs the flow needs.
    target: ['es2020', 'safari15'],
    legalComments: 'none',
    logLevel: 'warning',
  });
}

if (require.main === module) {
  buildWeb().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
