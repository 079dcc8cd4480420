package markdown

import (
	"bufio"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

func TestZZOracle(t *testing.T) {
	f, err := os.Open("/tmp/oracle/cps.txt")
	if err != nil {
		t.Skip()
	}
	cn13 := map[uint64]bool{}
	if b, err := os.ReadFile("/tmp/oracle/cn13.txt"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			v, _ := strconv.ParseUint(l, 16, 32)
			cn13[v] = true
		}
	}
	sc := bufio.NewScanner(f)
	bad, cn := 0, 0
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		cp, _ := strconv.ParseUint(parts[0], 16, 32)
		want, _ := hex.DecodeString(parts[1])
		got := Slug("A" + string(rune(cp)) + "b")
		if got != string(want) {
			r := rune(cp)
			assigned := false
			for _, tab := range unicode.Categories {
				if unicode.Is(tab, r) {
					assigned = true
				}
			}
			if !assigned || cn13[cp] {
				continue
			}
			bad++
			if bad < 60 {
				t.Logf("U+%04X %q: got %q want %q", cp, string(r), got, want)
			}
			if !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsDigit(r) {
				cn++
			}
		}
	}
	t.Logf("bad=%d nonletter=%d", bad, cn)
}
