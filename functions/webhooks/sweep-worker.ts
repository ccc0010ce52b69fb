/** Placeholder: replaced by the sweeper implementation (work in progress). */
export const handler = async (): Promise<void> => undefined;
