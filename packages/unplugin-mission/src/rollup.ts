import { unplugin } from "./index.js";

/** `plugins: [mission()]` in the rollup config. */
export default unplugin.rollup;
