/**
 * Node's `http`, taken as the CommonJS module it is: every bundle imports this in its place
 * (catalog/bundling.ts BUNDLING.alias). An ES-module import of `node:http` makes Node copy the module's
 * exports into its namespace, reading each getter, and `http.WebSocket` and its event classes are getters
 * that load Node's bundled undici: about 8 ms of CPU at every cold start, for classes no function uses.
 * The SDK's IMDS credential provider imports `node:http` at load. (Not `require('node:http')`: the alias
 * would turn it into this module.)
 */
module.exports = process.getBuiltinModule('node:http');
