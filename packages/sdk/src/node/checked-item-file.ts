import { readSync, writeSync } from "node:fs";
import { crc32 } from "node:zlib";
import { DerivedStateDamaged } from "../authority/derived-state-damaged.js";
import { HashList, type ItemSeq } from "../core/hash-list.js";

/** Bytes of items per block (at most; a whole number of items): one page. */
const BLOCK_DATA_BYTES = 4096;
const CRC_BYTES = 4;

/** How much of a checked item file a reader may use: `count` items, the last, partial block's CRC-32 being `tailCrc`. */
export interface ItemFileCover {
  readonly count: number;
  readonly tailCrc: number;
}

export const EMPTY_COVER: ItemFileCover = { count: 0, tailCrc: 0 };

/** Recently read blocks of every checked item file a store reads, least recently used dropped first: what bounds a store's memory for them. */
export class BlockCache {
  readonly #capacity: number;
  readonly #blocks = new Map<string, Uint8Array>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(key: string): Uint8Array | undefined {
    const block = this.#blocks.get(key);
    if (block !== undefined) {
      this.#blocks.delete(key);
      this.#blocks.set(key, block);
    }
    return block;
  }

  set(key: string, block: Uint8Array): void {
    this.#blocks.set(key, block);
    if (this.#blocks.size > this.#capacity) this.#blocks.delete(this.#blocks.keys().next().value as string);
  }
}

/**
 * A file of fixed-size items in blocks of one page, each full block
 * followed by the CRC-32 of its items; the CRC of the last, partial block
 * is kept by whoever keeps the cover (the state head), so appending never
 * changes a byte a reader with an older cover uses. Append-only: items are
 * only ever written past the count of every cover in use. Reads are
 * synchronous positioned reads of one block, checked and cached; a block
 * that fails its check throws `DerivedStateDamaged`.
 */
export class CheckedItemFile {
  readonly #fd: number;
  readonly #itemBytes: number;
  readonly #perBlock: number;
  readonly #cover: ItemFileCover;
  readonly #cache: BlockCache;
  readonly #name: string;

  constructor(fd: number, name: string, itemBytes: number, cover: ItemFileCover, cache: BlockCache) {
    this.#fd = fd;
    this.#name = name;
    this.#itemBytes = itemBytes;
    this.#perBlock = itemsPerBlock(itemBytes);
    this.#cover = cover;
    this.#cache = cache;
  }

  get length(): number {
    return this.#cover.count;
  }

  get cover(): ItemFileCover {
    return this.#cover;
  }

  /** Item `index` (< length), a view of its checked block. */
  get(index: number): Uint8Array {
    const block = this.#block(Math.floor(index / this.#perBlock));
    const at = (index % this.#perBlock) * this.#itemBytes;
    return block.subarray(at, at + this.#itemBytes);
  }

  /** The items of block `block`, checked. */
  #block(block: number): Uint8Array {
    const items = Math.min(this.#perBlock, this.#cover.count - block * this.#perBlock);
    // A partial block grows: its key names how many items it held when read.
    const key = `${this.#name}:${block}:${items}`;
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const full = items === this.#perBlock;
    const bytes = Buffer.allocUnsafe(items * this.#itemBytes + (full ? CRC_BYTES : 0));
    const read = readSync(this.#fd, bytes, 0, bytes.length, block * blockBytes(this.#itemBytes));
    const data = bytes.subarray(0, items * this.#itemBytes);
    const expected = full ? bytes.readUInt32BE(data.length) : this.#cover.tailCrc;
    if (read !== bytes.length || crc32(data) !== expected) throw new DerivedStateDamaged(`block ${block} of ${this.#name} is damaged or missing`);
    this.#cache.set(key, data);
    return data;
  }
}

/**
 * Writes `items` (whole items) after the `cover.count` items of the file
 * (positioned, one write), with the CRC of each block they fill; returns
 * the cover that includes them. Bytes past the old cover (a crashed
 * writer's) are overwritten.
 */
export function appendItems(fd: number, itemBytes: number, cover: ItemFileCover, items: Uint8Array): ItemFileCover {
  const perBlock = itemsPerBlock(itemBytes);
  const added = items.length / itemBytes;
  let count = cover.count;
  let tailCrc = cover.tailCrc;
  const start = positionOf(count, itemBytes);
  const out = Buffer.allocUnsafe(positionOf(count + added, itemBytes) - start + CRC_BYTES);
  let at = 0;
  for (let from = 0; from < added;) {
    const inBlock = count % perBlock;
    const take = Math.min(perBlock - inBlock, added - from);
    const chunk = items.subarray(from * itemBytes, (from + take) * itemBytes);
    at += Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length).copy(out, at);
    tailCrc = crc32(chunk, inBlock === 0 ? 0 : tailCrc);
    count += take;
    from += take;
    if (count % perBlock === 0) {
      at = out.writeUInt32BE(tailCrc, at);
      tailCrc = 0;
    }
  }
  for (let written = 0; written < at;) written += writeSync(fd, out, written, at - written, start + written);
  return { count, tailCrc };
}

/** Byte position of item `index`: the blocks before it, each with its CRC, then the items before it in its block. */
function positionOf(index: number, itemBytes: number): number {
  const perBlock = itemsPerBlock(itemBytes);
  return Math.floor(index / perBlock) * blockBytes(itemBytes) + (index % perBlock) * itemBytes;
}

function itemsPerBlock(itemBytes: number): number {
  return Math.max(1, Math.floor(BLOCK_DATA_BYTES / itemBytes));
}

function blockBytes(itemBytes: number): number {
  return itemsPerBlock(itemBytes) * itemBytes + CRC_BYTES;
}

/**
 * Items on disk (a checked item file's cover) followed by items added in
 * memory since it was opened: the state of a restored store, whose memory
 * holds only what it read or wrote since its last save.
 */
export class BackedItems implements ItemSeq {
  readonly base: CheckedItemFile;
  readonly #added: HashList;

  constructor(base: CheckedItemFile, itemBytes: number) {
    this.base = base;
    this.#added = new HashList(itemBytes);
  }

  get length(): number {
    return this.base.length + this.#added.length;
  }

  get(index: number): Uint8Array {
    return index < this.base.length ? this.base.get(index) : this.#added.get(index - this.base.length);
  }

  push(item: Uint8Array): void {
    this.#added.push(item);
  }

  truncate(length: number): void {
    // Only leaves of a failed append are taken back, and those were never saved.
    if (length < this.base.length) throw new RangeError(`cannot take back saved items (${length} < ${this.base.length})`);
    this.#added.truncate(length - this.base.length);
  }
}
