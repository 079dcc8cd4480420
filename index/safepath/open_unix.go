//go:build unix

package safepath

import "syscall"

// openFlags: a named pipe put in place of a file between the check and
// the open must not make the open wait for a writer, and a terminal must
// not become canon's controlling one.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY

// noFollow: ReadListed opens the listed name itself, never what a link
// put in its place leads to.
const noFollow = syscall.O_NOFOLLOW
