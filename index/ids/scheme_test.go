package ids

import (
	"bytes"
	"context"
	"crypto/rand"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/canon-md/canon/index/config"
)

func TestMintRandom(t *testing.T) {
	ids := config.IDs{Scheme: config.SchemeRandom, Digits: 6}
	re := regexp.MustCompile(`^KB-TSK-[0-9a-f]{6}$`)
	seen := map[string]bool{}
	for range 1000 {
		id, err := mintFree("KB-TSK-", ids, nil, time.Now, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if !re.MatchString(id) {
			t.Fatalf("minted %s, want KB-TSK- and 6 lowercase hex digits", id)
		}
		if p, _, ok := ids.Split(id); !ok || p != "KB-TSK-" {
			t.Fatalf("Split(%s) = %q, %v: the scheme does not read back what it minted", id, p, ok)
		}
		seen[id] = true
	}
	if len(seen) < 990 {
		t.Errorf("1000 draws gave %d ids: not random", len(seen))
	}
	odd, _ := Mint("task-", config.IDs{Scheme: config.SchemeRandom, Digits: 5}, time.Now(), bytes.NewReader([]byte{0xab, 0xcd, 0xef}))
	if odd != "task-abcde" {
		t.Errorf("5 digits from abcdef = %s, want task-abcde", odd)
	}
}

func TestMintDrawsAgainWhenTaken(t *testing.T) {
	ids := config.IDs{Scheme: config.SchemeRandom, Digits: 6}
	// The first draw is taken (another case), the second has no digit,
	// the third is free.
	r := bytes.NewReader([]byte{0x12, 0x34, 0x56, 0xab, 0xcd, 0xef, 0x7f, 0x3a, 0x9c})
	id, err := mintFree("KB-TSK-", ids, []string{"kb-tsk-123456"}, time.Now, r)
	if err != nil || id != "KB-TSK-7f3a9c" {
		t.Fatalf("mintFree = %s, %v; want KB-TSK-7f3a9c", id, err)
	}
	full := bytes.NewReader(bytes.Repeat([]byte{0x12, 0x34, 0x56}, mintTries))
	if _, err := mintFree("KB-TSK-", ids, []string{"KB-TSK-123456"}, time.Now, full); err == nil || !strings.Contains(err.Error(), "raise ids.digits") {
		t.Errorf("a space where every draw is taken: %v, want an error naming ids.digits", err)
	}
}

func TestMintTimeSorts(t *testing.T) {
	ids := config.IDs{Scheme: config.SchemeTime}
	base := time.Date(2026, 11, 25, 22, 0, 0, 0, time.UTC)
	var minted []string
	for i := range 200 {
		at := base.Add(time.Duration(i*i) * time.Millisecond)
		id, err := mintFree("ADR-", ids, nil, func() time.Time { return at }, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if len(id) != len("ADR-")+config.TimeSuffixLen || strings.Trim(id[4:], config.Base32) != "" {
			t.Fatalf("minted %s, want ADR- and %d base32 digits", id, config.TimeSuffixLen)
		}
		minted = append(minted, id)
	}
	if !sort.StringsAreSorted(minted) {
		t.Errorf("time ids do not sort as their times: %v", minted[:5])
	}
	a, _ := Mint("ADR-", ids, base, bytes.NewReader([]byte{0, 0, 0}))
	b, _ := Mint("ADR-", ids, base, bytes.NewReader([]byte{0, 0, 0x10}))
	if a == b || a[:4+9] != b[:4+9] {
		t.Errorf("the same millisecond, other random bits: %s and %s, want one time part and two ids", a, b)
	}
}

func TestNextFreeUnderAScheme(t *testing.T) {
	cfg := config.Default()
	cfg.IDs = config.IDs{Scheme: config.SchemeRandom, Digits: 6}
	// Ids the scheme minted name the series: KB-TSK-, though 7f3a96
	// also reads as a numbered id of prefix KB-TSK-7f3a.
	docs := []Doc{{Ident: "KB-TSK-7f3a96", Kind: "task"}, {Ident: "KB-TSK-0b2e4a", Kind: "task"}, {Ident: "KB-TSK-c0ffee", Kind: "task"}}
	taken := func(ctx context.Context) ([]RefID, error) {
		return []RefID{{Ref: "refs/heads/other", Path: "t.md", Ident: "KB-TSK-123456"}}, nil
	}
	old := mintRand
	defer func() { mintRand = old }()
	mintRand = bytes.NewReader([]byte{0x12, 0x34, 0x56, 0x0a, 0xbc, 0xd1})
	id, err := NextFree(context.Background(), docs, cfg, "task", "", taken)
	if err != nil || id != "KB-TSK-0abcd1" {
		t.Fatalf("NextFree = %s, %v; want KB-TSK-0abcd1 (KB-TSK-123456 is taken on another ref)", id, err)
	}
	cfg.IDs = config.DefaultIDs()
	if id, _ := NextFree(context.Background(), []Doc{{Ident: "KB-TSK-0012", Kind: "task"}}, cfg, "task", "", nil); id != "KB-TSK-0013" {
		t.Errorf("sequential NextFree = %s, want KB-TSK-0013", id)
	}
}
