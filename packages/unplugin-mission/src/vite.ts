import { unplugin } from "./index.js";

/** `plugins: [mission()]` in the vite config. */
export default unplugin.vite;
