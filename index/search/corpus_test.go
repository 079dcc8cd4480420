package search

import (
	"testing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/indextest"
)

// corpusIndex builds an index of files (path: content) with the default
// configuration and returns it. It is closed when the test
// corpusIndex builds an index of files (path: content) with the default
// configuration and returns it. It is closed when the test ends.
func corpusIndex(t testing.TB, files map[string]string) *index.Store {
	t.Helper()
	root := t.TempDir()
	indextest.Write(t, root, files)
	return indextest.Build(t, root, config.Default())
}
