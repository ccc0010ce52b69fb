/** chrono's French parser, as `#chrono-fr` (functions/ai/entities.ts says why); its other languages are tree-shaken out. */
import { fr } from 'chrono-node';

export const casual = fr.casual;
