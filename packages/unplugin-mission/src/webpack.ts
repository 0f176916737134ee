import { unplugin } from "./index.js";

/** `plugins: [mission()]` in the webpack config. */
export default unplugin.webpack;
