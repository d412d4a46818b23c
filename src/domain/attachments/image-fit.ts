/** A re-encoded image and what it is. */
export interface FittedImage {
  bytes: Buffer;
  width: number;
  height: number;
}

/** What fitting an image answers: the copy under the cap, the smallest size reached, or no sharp here. */
export type ImageFit =
  | { fits: true; image: FittedImage }
  | { fits: false; smallestBytes: number }
  | { fits: "unavailable" };

type Sharp = typeof import("sharp");
let loaded: Promise<Sharp | null> | undefined;

/**
 * sharp, loaded on first use so `serve` does not pay for it at start; null where its native
 * addon cannot load (then images are fitted as simulated, like video without ffmpeg).
 */
function loadSharp(): Promise<Sharp | null> {
  loaded ??= import("sharp").then(
    (module) => {
      const sharp = module.default;
      sharp.cache(false);
      return sharp;
    },
    () => null,
  );
  return loaded;
}

/**
 * mozjpeg's size savings without its progressive scans: sharp's `mozjpeg: true` preset turns on
 * `optimiseScans`, which makes the file progressive whatever `progressive: false` says, and a
 * progressive JPEG is what some MMS gateways and older phones fail to show.
 */
const BASELINE_MOZJPEG = {
  trellisQuantisation: true,
  overshootDeringing: true,
  quantisationTable: 3,
  optimiseCoding: true,
  progressive: false,
} as const;

const MIN_EDGE = 16;
const MAX_TRIES = 12;

/**
 * Re-encodes an image until it fits `capBytes` (media quality `fit`), with sharp. Every copy is a
 * baseline JPEG (SOF0), what MMS gateways and phones all show: transparency is flattened on white,
 * EXIF orientation applied. Each try scales the image by the square root of
 * how far over the cap the last one was (bytes follow the pixel count), and steps the quality
 * down to 60, so an image 100 times over fits in a few tries.
 */
export async function fitImage(path: string, capBytes: number): Promise<ImageFit> {
  const sharp = await loadSharp();
  if (!sharp) return { fits: "unavailable" };
  const metadata = await sharp(path).metadata();
  const oriented = metadata.autoOrient ?? metadata;
  const width = oriented.width ?? 0;
  const height = oriented.height ?? 0;
  if (width === 0 || height === 0) return { fits: false, smallestBytes: Number.POSITIVE_INFINITY };

  let scale = 1;
  let quality = 85;
  let smallest = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const w = Math.max(1, Math.round(width * scale));
    const h = Math.max(1, Math.round(height * scale));
    const bytes = await sharp(path, { failOn: "none" })
      .rotate()
      .resize(w, h, { fit: "fill" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality, ...BASELINE_MOZJPEG })
      .toBuffer();
    smallest = Math.min(smallest, bytes.length);
    if (bytes.length <= capBytes) return { fits: true, image: { bytes, width: w, height: h } };
    quality = Math.max(60, quality - 10);
    // 0.9: aim a little under, so the next try usually lands.
    scale *= Math.sqrt(capBytes / bytes.length) * 0.9;
    if (Math.min(width, height) * scale < MIN_EDGE) break;
  }
  return { fits: false, smallestBytes: smallest };
}
