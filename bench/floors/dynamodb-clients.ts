/**
 * The floor for a handler's cold load (`npm run bench`): a bundle that imports only the DynamoDB clients
 * every handler uses, built with the same settings as the handlers. A handler cannot load faster than
 * its SDK; what it takes beyond this is the project's own code.
 */
export { DynamoDBClient } from '@aws-sdk/client-dynamodb';
export { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
