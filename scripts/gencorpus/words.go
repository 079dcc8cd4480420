package main

import "strings"

// The vocabulary is the same for every seed: real English function words and checkout terms
// at the top ranks, then made-up words from a fixed generator, about 5,000 in all. Word
// frequencies follow a Zipf-Mandelbrot law, so full-text search sees a realistic spread of
// very common, common and rare terms.

const vocabSize = 5000

var functionWords = strings.Fields(`
the of and to a in is for that on with as it be by this are from or at not when if we an
which can but all has have was will so more each one only after before into then than its
our they there their should must new also between per every same other any both first last
because while without through over under about up out again still already two three some
most before where who what how them these those may would could been being does did do
`)

var domainWords = strings.Fields(`
payment checkout cart order refund webhook session token address postal card issuer
challenge authentication authorisation capture settlement ledger reconciliation fraud score
review queue shopper customer support agent finance currency amount rounding exemption
provider service api endpoint request response retry timeout latency cache inbox event
sequence idempotency key status state flow step page form field validation rule country
market carrier shipping delivery parcel label warehouse invoice receipt discount voucher
gift return chargeback dispute merchant acquirer scheme iframe browser mobile desktop
release flag rollout metric dashboard alert runbook incident migration schema table column
index query worker job batch report test sandbox staging production load deploy config
threshold limit window back-off lock transaction replay duplicate ordering gap consumer
producer broker message notification email template copy translation locale accessibility
keyboard screen reader overlay modal button click submit tab cookie consent analytics
funnel conversion drop-off experiment variant segment cohort basket quantity price tax vat
stock inventory reservation pickup courier tracking origin destination region zone
street city apartment building suggestion lookup autocomplete debounce proxy quota invoice
ledger journal balance payout fee commission subscription renewal trial plan tier coupon
loyalty points wallet device fingerprint velocity rule-set analyst decision audit log trail
retention archive export import feed catalog product variant sku listing search ranking
filter facet sort relevance recommendation banner promotion campaign newsletter consent
profile account login password reset verification otp sms push preference setting theme
layout header footer navigation breadcrumb spinner skeleton placeholder error warning
message toast banner copywriting legal policy terms privacy gdpr pci compliance scope
certificate signature secret rotation vault credential permission role scope tenant
partition shard replica primary failover backup restore snapshot cluster node pod
container image registry pipeline build artefact version changelog contract client
server handler middleware router controller repository adapter interface module package
library dependency upgrade deprecation fallback circuit breaker bulkhead throttle
backpressure saturation throughput percentile budget estimate capacity forecast peak
traffic outage degradation recovery postmortem follow-up owner stakeholder roadmap
milestone iteration sprint backlog epic feature story task bug spike acceptance criteria
risk assumption constraint trade-off alternative consequence rationale context goal
approach worklog
`)

// Words for titles; they must read as a plausible backlog title.
var (
	titleVerbs  = strings.Fields(`Implement Add Fix Refactor Support Validate Migrate Remove Document Cache Retry Expose Harden Split Rename Measure Reconcile Backfill Deduplicate Localise Throttle`)
	epicVerbs   = strings.Fields(`Modernise Rebuild Improve Simplify Scale Harden Automate Unify Consolidate Redesign`)
	adjectives  = strings.Fields(`Reliable Faster Safer Simpler Consistent Resilient Accessible Auditable Incremental Self-service`)
	roles       = strings.Fields(`shopper customer support-agent analyst finance-controller merchant developer operator`)
	storyVerbs  = strings.Fields(`see track change cancel retry confirm export review approve reuse find compare`)
	bugPhrases  = []string{"fails", "is lost", "is duplicated", "shows the wrong", "times out", "is rounded wrongly", "is not saved", "breaks"}
	whenPhrases = []string{"on mobile", "after a retry", "for guest shoppers", "in Safari", "after a reload", "with two currencies", "during a rollout", "under load"}
	areas       = strings.Fields(`payments cart checkout address fraud refunds shipping account catalog search`)
	tagWords    = strings.Fields(`payments cart checkout address fraud refunds shipping account catalog search webhooks session 3ds api frontend backend performance reliability compliance ux`)
	owners      = strings.Fields(`maria.lindqvist jonas.berg aisha.rahman tomasz.nowak lena.fischer priya.nair ola.hansen chen.wei sara.costa liam.obrien noor.haddad emil.virtanen`)
	agents      = strings.Fields(`codex claude copilot maria.lindqvist jonas.berg aisha.rahman tomasz.nowak lena.fischer priya.nair`)
)

// yamlUnsafe are words YAML 1.1 would read as something other than a string when they form
// a whole flow-list element.
var yamlUnsafe = map[string]bool{"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true, "true": true, "false": true, "null": true}

type vocabulary struct {
	words []string
	cdf   []uint64 // cumulative Zipf weights, same length as words
}

func newVocabulary() *vocabulary {
	seen := map[string]bool{}
	var words []string
	add := func(w string) {
		if !seen[w] && !yamlUnsafe[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	for _, w := range functionWords {
		add(w)
	}
	for _, w := range domainWords {
		add(w)
	}
	onsets := strings.Fields(`b c d f g h j k l m n p r s t v w z br cr dr fl gr pl st tr sh ch th`)
	vowels := strings.Fields(`a e i o u ai ea io ou`)
	codas := []string{"", "", "", "", "", "n", "r", "s", "l", "t", "m", "nd", "st", "rk"}
	r := newRNG(0x5eed0f5eed, 0) // fixed: the vocabulary never depends on -seed
	for len(words) < vocabSize {
		var b strings.Builder
		syllables := 2
		if r.chance(0.25) {
			syllables = 3
		}
		for range syllables {
			b.WriteString(pick(r, onsets))
			b.WriteString(pick(r, vowels))
			b.WriteString(pick(r, codas))
		}
		add(b.String())
	}
	// Zipf-Mandelbrot weights 1/(rank+2.7), in integers so that no floating-point rounding
	// (or fused multiply-add on some CPUs) can change the corpus between machines.
	v := &vocabulary{words: words, cdf: make([]uint64, len(words))}
	var total uint64
	for i := range words {
		total += (1 << 40) * 10 / uint64(10*i+27)
		v.cdf[i] = total
	}
	return v
}

func (v *vocabulary) word(r *rng) string {
	u := uint64(r.intn(int(v.cdf[len(v.cdf)-1])))
	lo, hi := 0, len(v.cdf)-1
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if v.cdf[m] > u {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return v.words[lo]
}

// rareWord returns a word from the long tail, to make titles distinctive.
func (v *vocabulary) rareWord(r *rng) string {
	return v.words[400+r.intn(len(v.words)-400)]
}
