package gitfile

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Commit is what canon reads of a commit object: its parents, its
// author's name and its committer time.
type Commit struct {
	Parents []plumbing.Hash
	Author  string // the name, without the address
	When    int64  // committer time, unix seconds
}

// ParseCommit reads a commit object's header (the lines before the
// message). A parent line that is not an object id is passed over, and a
// time that does not read is zero: a commit's header is checked by git
// when it is made, and canon reads only what it orders and shows by.
func ParseCommit(data []byte) Commit {
	var c Commit
	for len(data) > 0 {
		line := data
		if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
			line, data = data[:nl], data[nl+1:]
		} else {
			data = nil
		}
		if len(line) == 0 {
			break // the message starts
		}
		k, v, _ := bytes.Cut(line, []byte{' '})
		switch string(k) {
		case "parent":
			if plumbing.IsHash(string(v)) {
				c.Parents = append(c.Parents, plumbing.NewHash(string(v)))
			}
		case "author":
			if lt := bytes.IndexByte(v, '<'); lt > 0 {
				c.Author = strings.TrimSpace(string(v[:lt]))
			}
		case "committer":
			if gt := bytes.LastIndexByte(v, '>'); gt >= 0 {
				f := strings.Fields(string(v[gt+1:]))
				if len(f) > 0 {
					c.When, _ = strconv.ParseInt(f[0], 10, 64)
				}
			}
		}
	}
	return c
}

// CommitTree reads the root tree a commit object starts with ("tree
// HEX\n"); false when it does not start so.
func CommitTree(data []byte) (plumbing.Hash, bool) {
	hex, ok := bytes.CutPrefix(data, []byte("tree "))
	if !ok || len(hex) < 41 || hex[40] != '\n' || !plumbing.IsHash(string(hex[:40])) {
		return plumbing.ZeroHash, false
	}
	return plumbing.NewHash(string(hex[:40])), true
}
