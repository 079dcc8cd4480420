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
// sidecar's, plus one. A sidecar edited, added or removed (one older
// than the README too, by the one) so makes a stat walk read its README
// again, and a recent sidecar makes the README racy (statChanges).
func (s *Scope) Stamped(rel string, mtime int64) int64 {
	for _, p := range SidecarsOf(s.cfg, rel) {
		fi, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(p)))
		if err == nil && !fi.IsDir() {
			return max(mtime, fi.ModTime().UnixNano()) + 1
		}
	}
	return mtime
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
