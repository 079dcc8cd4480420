//go:build linux

// Command walkfloor is the floor of a stat walk, for benchmarks: it reads
// every folder under a root with getdents64 and lstats every .md file in
// it relative to the open folder (fstatat), and does nothing else: no
// ignore rules, no sort, no path built. It prints how many files it
// stat'ed. ADR-0081 and ADR-0088 compare canon's walk with it.
//
//	go run ./scripts/walkfloor DIR
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: walkfloor DIR")
		os.Exit(2)
	}
	buf := make([]byte, 1<<16)
	n, err := walk(os.Args[1], buf)
	if err != nil {
		fmt.Fprintln(os.Stderr, "walkfloor:", err)
		os.Exit(1)
	}
	fmt.Println(n)
}

func walk(dir string, buf []byte) (int, error) {
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
		n, err := walk(s, buf)
		count += n
		if err != nil {
			return count, err
		}
	}
	return count, nil
}
