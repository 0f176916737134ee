import { unplugin } from "./index.js";

/** `plugins: [mission()]` in the rspack config. */
export default unplugin.rspack;
