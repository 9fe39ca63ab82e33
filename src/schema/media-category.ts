/** The category a media attribute's `allowedTypes` names for a MIME type: `images`, `videos`, `audios` or `files` (everything else). */
export function mediaCategory(mime: string): 'images' | 'videos' | 'audios' | 'files' {
  if (mime.startsWith('image/')) return 'images';
  if (mime.startsWith('video/')) return 'videos';
  if (mime.startsWith('audio/')) return 'audios';
  return 'files';
}
