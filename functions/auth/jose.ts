/**
 * jose's JWT signing and verification, imported by auth/tokens.ts on first use only, as `#jose`
 * (package.json `imports`). Deployed, it is a bundle of its own beside the functions whose bundles import it
 * (catalog/bundling.ts BUNDLES_BESIDE): only the dashboard's requests carry a session token, and an API
 * key's request, most of every route's traffic, never verifies one.
 */
export { SignJWT, errors, jwtVerify } from 'jose';
