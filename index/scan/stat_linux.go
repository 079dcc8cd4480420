package scan

import (
	"os"

	"golang.org/x/sys/unix"
)

// statAt stats the entries of one open folder by name (fstatat), without
// building a path or an os.FileInfo for each.
type statAt struct{ fd int }

func newStatAt(f *os.File, _ string) statAt { return statAt{int(f.Fd())} }

// stat is an lstat of the entry name; Path is left empty.
func (d statAt) stat(name string) (FileInfo, bool) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return FileInfo{}, false
		}
		break
	}
	if st.Mode&unix.S_IFMT == unix.S_IFDIR {
		return FileInfo{}, false
	}
	return FileInfo{Size: st.Size, MtimeNs: st.Mtim.Sec*1e9 + st.Mtim.Nsec,
		Symlink: st.Mode&unix.S_IFMT == unix.S_IFLNK}, true
}
