//go:build !unix

package gitfile

import (
	"errors"
	"os"
)

// mapFile reads the file at path (no mapping on this system).
func mapFile(path string) ([]byte, func(), error) {
	data, err := os.ReadFile(path)
	return data, func() {}, err
}

// mapPack does not map on this system: the caller reads the pack through
// the file.
func mapPack(path string) ([]byte, func(), error) {
	return nil, nil, errors.New("no mapping on this system")
}
