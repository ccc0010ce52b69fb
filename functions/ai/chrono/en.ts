/** chrono's English parser, as `#chrono-en` (functions/ai/entities.ts says why); its other languages are tree-shaken out. */
import { en } from 'chrono-node';

export const casual = en.casual;
