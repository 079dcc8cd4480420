//go:build unix

package gitsync

import (
	"os"
	"syscall"
)

// mapFile maps the file at path read-only: a pack index is searched, not
// read, so only the pages a binary search touches are ever loaded. The
// mapping lives as long as the process (a hook's, or a watcher's, which
// reopens objects at each sync and unmaps through unmap).
func mapFile(path string) ([]byte, func(), error) {
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
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		// Some file systems cannot map: read it instead.
		data, err := os.ReadFile(path)
		return data, func() {}, err
	}
	return data, func() { syscall.Munmap(data) }, nil
}

// mapPack maps a pack file. Unlike mapFile it never falls back to reading
// the file whole (a pack can be gigabytes): the caller reads it through the
// file instead.
func mapPack(path string) ([]byte, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() == 0 || int64(int(st.Size())) != st.Size() {
		return nil, nil, syscall.EINVAL
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { syscall.Munmap(data) }, nil
}
