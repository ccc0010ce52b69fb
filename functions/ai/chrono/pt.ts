/** chrono's Portuguese parser, as `#chrono-pt` (functions/ai/entities.ts says why); its other languages are tree-shaken out. */
import { pt } from 'chrono-node';

export const casual = pt.casual;
