package scan

import (
	"os"
	"path"
	"path/filepath"

	"github.com/canon-md/canon/index/config"
)

// SidecarsOf is the sidecars the configuration names beside the document
// at path rel (a folder's README.md, config.Sidecars), as repository
// paths in the order they are tried: none for any other document.
// Whether one exists is the caller's to find.
func SidecarsOf(cfg *config.Config, rel string) []string {
	if len(cfg.Sidecars) == 0 || path.Base(rel) != config.SidecarBeside {
		return nil
	}
	out := make([]string, 0, len(cfg.Sidecars))
	for _, s := range cfg.Sidecars {
		out = append(out, path.Join(path.Dir(rel), s.File))
	}
	return out
}

// IsSidecar reports whether rel is a file config.Sidecars names (kep.yaml
// anywhere): a change of it is a change of the README beside it.
func IsSidecar(cfg *config.Config, rel string) bool {
	for _, s := range cfg.Sidecars {
		if path.Base(rel) == s.File {
			return true
		}
	}
	return false
}

// Stamped is a document's modification time as the index keeps it: its
// own, or for a README.md beside a sidecar the later of its and the
// sidecar's, plus one, plus a mix of both times and the sidecar's size
// under sidecarMixBits. A sidecar edited, added or removed so makes a stat
// walk read its README again: one older than the README too (restored
// with its old time by git checkout of an old version, touch -d, cp -p),
// which the later time alone would not tell, and one of another size in
// the same tick. A recent sidecar makes the README racy (statChanges):
// the stamp is never before either time.
func (s *Scope) Stamped(rel string, mtime int64) int64 {
	for _, p := range SidecarsOf(s.cfg, rel) {
		fi, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(p)))
		if err == nil && !fi.IsDir() {
			side := fi.ModTime().UnixNano()
			return max(mtime, side) + 1 + sidecarMix(mtime, side, fi.Size())
		}
	}
	return mtime
}

// sidecarMixBits bounds what sidecarMix adds to a stamp: 2^24 ns, 17 ms,
// by which a stamp may be later than both files, so that a stat walk
// counts a README racy (and reads it) up to 17 ms longer.
const sidecarMixBits = 24

// sidecarMix is a number under 2^sidecarMixBits that moves with any of
// the README's time, the sidecar's and the sidecar's size (splitmix64's
// finaliser over the three).
func sidecarMix(readme, side, size int64) int64 {
	x := uint64(readme)*0x9E3779B97F4A7C15 ^ uint64(side)*0xC2B2AE3D27D4EB4F ^ uint64(size)*0x165667B19E3779F9
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	x ^= x >> 31
	return int64(x & (1<<sidecarMixBits - 1))
}

// IsSidecarPath reports whether rel is a sidecar beside a document: a
// file config.Sidecars names, beside a README.md that is a document
// path. Such a file holds its README's fields, and canon writes them
// there (edit.Set).
func (s *Scope) IsSidecarPath(rel string) bool {
	if !IsSidecar(s.cfg, rel) {
		return false
	}
	return s.IsDocumentPath(path.Join(path.Dir(rel), config.SidecarBeside))
}
