import { useState } from 'react';

/** The letters a tile shows when it has no picture: the first two of the game's name. */
function initials(name: string): string {
  return name.trim().slice(0, 2);
}

/**
 * A lobby tile's picture: the game's image as the server sends it (the game's own art,
 * `/casino/art/<kind>.svg`, or an image the operator put in its place), or the name's first
 * letters when there is none or it fails to load. Decorative (`alt=""`): the tile names the game
 * in text beside it. Give it `key={src}` so that a new image is tried again after a failure.
 */
export function GameTileArt({ src, name }: { src: string; name: string }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <span className="game-tile-art" aria-hidden="true">
        {initials(name)}
      </span>
    );
  }
  // width/height give the browser the art's 16:11 before it loads, so the grid does not jump.
  return <img className="game-tile-img" src={src} alt="" width={320} height={220} loading="lazy" decoding="async" onError={() => setFailed(true)} />;
}
