export { startServer, type ServerOptions } from "./server.js";
