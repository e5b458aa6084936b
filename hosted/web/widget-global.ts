import { init } from './widget';

(window as unknown as { Bioverify: { init: typeof init } }).Bioverify = { init };
