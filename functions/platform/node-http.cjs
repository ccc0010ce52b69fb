/**
 * Node's `http`, taken as the CommonJS module it is: every bundle imports this in its place
 * (catalog/bundling.ts BUNDLING.alias). An ES-module import of `node:http` makes Node copy the module's
 * exports into its namespace, reading each getter, and `http.WebSocket` and its event classes are getters
 * that load Node's bundled undici: 9–12 ms of CPU at every cold start. The SDK's IMDS credential provider
 * imports `node:http` at load. Undici still loads where it is used, on first use: Stripe's client (beside
 * the bundle, not aliased) and `fetch` (WhatsApp Graph calls). (Not `require('node:http')`: the alias
 * would turn it into this module. `process.getBuiltinModule` is Node 22.3's, older than Lambda's nodejs22.x.)
 */
module.exports = process.getBuiltinModule('node:http');
