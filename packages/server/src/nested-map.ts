/**
 * The map under `key` in `outer`, made empty when missing: one level of the nested maps in which the request log and
 * the metrics find a request's logger or series by the strings and numbers it already has, without building a key.
 */
export function innerMap<K, IK, V>(outer: Map<K, Map<IK, V>>, key: K): Map<IK, V> {
  let found = outer.get(key);
  if (found === undefined) outer.set(key, (found = new Map<IK, V>()));
  return found;
}
