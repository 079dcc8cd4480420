//go:build unix

package gitfile

import (
	"os"
	"syscall"
)

// mapFile maps the file at path read-only: a pack index is searched, not
// read, so only the pages a binary search touches are ever loaded. The
// mapping lives as long as the process (a hook's, or a watcher's, which
// reopens objects at each sync and unmaps through unmap). A file system
// that cannot map gets the file read instead.
func mapFile(path string) ([]byte, func(), error) {
	data, unmap, err := mmapReadOnly(path)
	if err != nil { // a file that cannot be opened fails here too
		data, err := os.ReadFile(path)
		return data, func() {}, err
	}
	return data, unmap, nil
}

// mapPack maps a pack file. Unlike mapFile it never falls back to reading
// the file whole (a pack can be gigabytes): the caller reads it through the
// file instead.
func mapPack(path string) ([]byte, func(), error) {
	data, unmap, err := mmapReadOnly(path)
	if err == nil && len(data) == 0 {
		return nil, nil, syscall.EINVAL
	}
	return data, unmap, err
}

// mmapReadOnly maps the whole file at path; an empty file maps to nothing.
func mmapReadOnly(path string) ([]byte, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() == 0 {
		return nil, func() {}, nil
	}
	if int64(int(st.Size())) != st.Size() {
		return nil, nil, syscall.EINVAL
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { _ = syscall.Munmap(data) }, nil // a read-only map: nothing to do if unmapping fails
}
