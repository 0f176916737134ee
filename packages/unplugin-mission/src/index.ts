import { createUnplugin } from "unplugin";
import { unpluginFactory } from "./plugin.js";

export type { Options } from "./options.js";
export { unpluginFactory } from "./plugin.js";

/** The plugin for every bundler unplugin supports; the subpath entry points pick one each. */
export const unplugin = createUnplugin(unpluginFactory);
export default unplugin;
