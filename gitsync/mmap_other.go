//go:build !unix

package gitsync

import "os"

// mapFile reads the file at path (no mapping on this system).
func mapFile(path string) ([]byte, func(), error) {
	data, err := os.ReadFile(path)
	return data, func() {}, err
}
