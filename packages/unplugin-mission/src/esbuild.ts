import { unplugin } from "./index.js";

/** `plugins: [mission()]` in the esbuild config. */
export default unplugin.esbuild;
