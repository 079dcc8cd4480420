//go:build !linux

package scan

import (
	"os"
	"path/filepath"
)

// statAt stats the entries of one folder by name.
type statAt struct{ dir string }

func newStatAt(_ *os.File, dir string) statAt { return statAt{dir} }

// stat is an lstat of the entry name; Path is left empty.
func (d statAt) stat(name string) (FileInfo, bool) {
	info, err := os.Lstat(filepath.Join(d.dir, name))
	if err != nil || info.IsDir() {
		return FileInfo{}, false
	}
	return FileInfo{Size: info.Size(), MtimeNs: info.ModTime().UnixNano(), Symlink: info.Mode()&os.ModeSymlink != 0}, true
}
