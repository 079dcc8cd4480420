//go:build linux && (amd64 || arm64)

package scan

import (
	"bytes"
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

// benchFloor is the floor of a stat walk, beside BenchmarkWalk's: every
// folder read with getdents64, every .md file in it lstat'ed by its name
// relative to the open folder, and nothing else (scripts/walkfloor is the
// same as a command).
func init() { benchFloor = floor }

func floor(b *testing.B, root string) {
	buf := make([]byte, 1<<16)
	var walk func(dir string) int
	walk = func(dir string) int {
		fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer unix.Close(fd)
		var subs []string
		count := 0
		for {
			n, err := unix.Getdents(fd, buf)
			if err != nil {
				b.Fatal(err)
			}
			if n == 0 {
				break
			}
			for off := 0; off < n; {
				reclen := int(binary.NativeEndian.Uint16(buf[off+16:]))
				name := buf[off+19 : off+reclen]
				name = name[:bytes.IndexByte(name, 0)]
				switch {
				case name[0] == '.':
				case buf[off+18] == unix.DT_DIR:
					subs = append(subs, dir+"/"+string(name))
				case bytes.HasSuffix(name, []byte(".md")):
					if _, ok := fstatat(fd, buf[off+19:]); ok {
						count++
					}
				}
				off += reclen
			}
		}
		for _, s := range subs {
			count += walk(s)
		}
		return count
	}
	for b.Loop() {
		walk(root)
	}
}
