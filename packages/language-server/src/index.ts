export { startServer } from "./server.js";
export { SERVER_VERSION } from "./version.js";
