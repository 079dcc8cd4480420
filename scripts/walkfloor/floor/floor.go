//go:build linux && (amd64 || arm64)

// Package floor is the floor of a stat walk, for benchmarks: it reads
// every folder under a root with getdents64 and lstats every .md file in
// it relative to the open folder (fstatat), and does nothing else: no
// ignore rules, no sort, no path built. scripts/walkfloor runs it as a
// command and index/scan's BenchmarkWalk beside canon's walk.
package floor

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Walk stats every .md file below dir (names starting with a dot are
// skipped) and returns how many it stat'ed. buf holds one getdents64
// read; 64 KiB is plenty.
func Walk(dir string, buf []byte) (int, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", dir, err)
	}
	defer unix.Close(fd)
	var subs []string
	count := 0
	for {
		n, err := unix.Getdents(fd, buf)
		if err != nil {
			return count, err
		}
		if n == 0 {
			break
		}
		for off := 0; off < n; {
			reclen := int(binary.NativeEndian.Uint16(buf[off+16:]))
			typ := buf[off+18]
			name := buf[off+19 : off+reclen]
			name = name[:bytes.IndexByte(name, 0)]
			switch {
			case name[0] == '.':
			case typ == unix.DT_DIR:
				subs = append(subs, dir+"/"+string(name))
			case bytes.HasSuffix(name, []byte(".md")):
				var st unix.Stat_t
				_, _, e := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(&name[0])),
					uintptr(unsafe.Pointer(&st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
				if e == 0 {
					count++
				}
			}
			off += reclen
		}
	}
	for _, s := range subs {
		n, err := Walk(s, buf)
		count += n
		if err != nil {
			return count, err
		}
	}
	return count, nil
}
