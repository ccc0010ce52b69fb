/**
 * libphonenumber's parser, imported by ai/entities.ts only for a message with a number in international
 * form in it, as `#phone-numbers` (package.json `imports`). Deployed, it is a bundle of its own beside the
 * functions that extract entities (catalog/bundling.ts BUNDLES_BESIDE): most messages name no phone
 * number, and their analysis never parses it.
 */
export { parsePhoneNumberFromString } from 'libphonenumber-js/core';
