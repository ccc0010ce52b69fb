/** chrono's German parser, as `#chrono-de` (functions/ai/entities.ts says why); its other languages are tree-shaken out. */
import { de } from 'chrono-node';

export const casual = de.casual;
