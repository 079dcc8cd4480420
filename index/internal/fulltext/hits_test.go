package fulltext

import "testing"

// TestSqliteVarint: the varints of FTS5's structure record (Segments).
func TestSqliteVarint(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		want uint64
		n    int
	}{{[]byte{5}, 5, 1}, {[]byte{0x81, 0}, 128, 2}, {[]byte{0x81, 0x80, 0x01}, 1<<14 + 1, 3}, {[]byte{0x80}, 0, 0}, {nil, 0, 0}} {
		if v, n := sqliteVarint(c.b); v != c.want || n != c.n {
			t.Errorf("sqliteVarint(%x) = %d, %d; want %d, %d", c.b, v, n, c.want, c.n)
		}
	}
}
