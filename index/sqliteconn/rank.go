//go:build cgo

package sqliteconn

/*
#cgo LDFLAGS: -lm
#include <math.h>
#include <string.h>

// The part of SQLite's public FTS5 interface (sqlite3.h, "FTS5 EXTENSION
// REGISTRATION API" and "EXTENSION API FUNCTIONS") this file calls: the
// leading members of the two structs, in SQLite's order. The structs are a
// stable ABI that only ever grows at the end.
typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef struct sqlite3_context sqlite3_context;
typedef struct sqlite3_value sqlite3_value;
typedef long long sqlite3_int64;
typedef struct Fts5Context Fts5Context;
typedef struct Fts5ExtensionApi Fts5ExtensionApi;
struct Fts5ExtensionApi {
	int iVersion;
	void *(*xUserData)(Fts5Context*);
	int (*xColumnCount)(Fts5Context*);
	int (*xRowCount)(Fts5Context*, sqlite3_int64 *pnRow);
	int (*xColumnTotalSize)(Fts5Context*, int iCol, sqlite3_int64 *pnToken);
	void *xTokenize;
	int (*xPhraseCount)(Fts5Context*);
	int (*xPhraseSize)(Fts5Context*, int iPhrase);
	int (*xInstCount)(Fts5Context*, int *pnInst);
	int (*xInst)(Fts5Context*, int iIdx, int *piPhrase, int *piCol, int *piOff);
	sqlite3_int64 (*xRowid)(Fts5Context*);
	int (*xColumnText)(Fts5Context*, int iCol, const char **pz, int *pn);
	int (*xColumnSize)(Fts5Context*, int iCol, int *pnToken);
	int (*xQueryPhrase)(Fts5Context*, int iPhrase, void *pUserData, int(*)(const Fts5ExtensionApi*, Fts5Context*, void*));
	int (*xSetAuxdata)(Fts5Context*, void *pAux, void(*xDelete)(void*));
	void *(*xGetAuxdata)(Fts5Context*, int bClear);
};
typedef void (*fts5_extension_function)(const Fts5ExtensionApi*, Fts5Context*, sqlite3_context*, int, sqlite3_value**);
typedef struct fts5_api fts5_api;
struct fts5_api {
	int iVersion;
	void *xCreateTokenizer;
	void *xFindTokenizer;
	int (*xCreateFunction)(fts5_api*, const char*, void*, fts5_extension_function, void (*)(void*));
};
int sqlite3_prepare_v2(sqlite3*, const char*, int, sqlite3_stmt**, const char**);
int sqlite3_bind_pointer(sqlite3_stmt*, int, void*, const char*, void(*)(void*));
int sqlite3_step(sqlite3_stmt*);
int sqlite3_finalize(sqlite3_stmt*);
double sqlite3_value_double(sqlite3_value*);
sqlite3_int64 sqlite3_value_int64(sqlite3_value*);
void sqlite3_result_double(sqlite3_context*, double);
void sqlite3_result_error_code(sqlite3_context*, int);
void *sqlite3_malloc64(unsigned long long);
void sqlite3_free(void*);
void *sqlite3_user_data(sqlite3_context*);
void sqlite3_result_int64(sqlite3_context*, sqlite3_int64);
int sqlite3_create_function(sqlite3*, const char*, int, int, void*, void (*)(sqlite3_context*, int, sqlite3_value**), void (*)(sqlite3_context*, int, sqlite3_value**), void (*)(sqlite3_context*));

// What canon_bm25 tells canon_bm25_scored on the same connection: how
// many rows the latest query it ranked has scored.
typedef struct {
	sqlite3_int64 nScored;
} canonRankConn;

// What each of canon_bm25 and canon_bm25_pivot is registered with: the
// connection's counter, and whether a row shorter than the average counts
// as long as the average (pivot).
typedef struct {
	canonRankConn *conn;
	int pivot;
} canonRankFn;

// One allocation per connection: the two functions' data first (FTS5
// frees the block through canon_bm25's), the counter after them.
typedef struct {
	canonRankFn fn[2];
	canonRankConn conn;
} canonRankAll;

static void canonScored(sqlite3_context *ctx, int nVal, sqlite3_value **apVal) {
	canonRankConn *c = (canonRankConn*)sqlite3_user_data(ctx);
	sqlite3_result_int64(ctx, c->nScored);
}

// What canon_bm25 works out once per query, as bm25's Fts5Bm25Data.
typedef struct {
	int nPhrase;
	double avgdl;
	double *aIDF;
	double *aFreq;
	sqlite3_int64 lastRow; // the row scored last, and its answer: a query
	double lastScore;      // may ask for a row's score twice (WHERE and
	int lastKept;          // SELECT), which must not count it twice
	int nKeep;    // K, when the query asked for its K best only (else 0)
	int nTop;     // scores in aTop so far
	double *aTop; // the K best scores so far, a heap with the worst on top
} canonRankData;

// canonKeep reports whether score can still be among the K best, and
// remembers it when it is. Lower is better. A score equal to the K-th
// best so far is kept: ties with the K-th are part of the answer.
static int canonKeep(canonRankData *p, double score) {
	if (p->nTop < p->nKeep) {
		int i = p->nTop++;
		p->aTop[i] = score;
		while (i > 0 && p->aTop[(i-1)/2] < p->aTop[i]) {
			double t = p->aTop[i]; p->aTop[i] = p->aTop[(i-1)/2]; p->aTop[(i-1)/2] = t;
			i = (i-1)/2;
		}
		return 1;
	}
	if (score > p->aTop[0]) return 0;
	if (score < p->aTop[0]) {
		int i = 0;
		p->aTop[0] = score;
		for (;;) {
			int l = 2*i+1, r = l+1, m = i;
			if (l < p->nTop && p->aTop[l] > p->aTop[m]) m = l;
			if (r < p->nTop && p->aTop[r] > p->aTop[m]) m = r;
			if (m == i) break;
			double t = p->aTop[i]; p->aTop[i] = p->aTop[m]; p->aTop[m] = t;
			i = m;
		}
	}
	return 1;
}

static int canonCountCb(const Fts5ExtensionApi *pApi, Fts5Context *pFts, void *pUser) {
	(*(sqlite3_int64*)pUser)++;
	return 0;
}

// canon_bm25(tbl, W_1 .. W_ncol [, K [, HITS_1 .. HITS_nphrase]]) is
// FTS5's bm25 with the column weights W, the same arithmetic in the same
// order (so the same doubles), except for where each phrase's number of
// matching rows comes from: bm25 counts them for every query by reading
// the phrase's whole list of rows (xQueryPhrase), canon_bm25 takes them
// from its arguments when there is one per phrase, and counts as bm25 does
// otherwise. With K > 0, a row whose score is worse than the K-th best
// scored so far in the query is NULL: it cannot be among the K best (ties
// included), and the caller sorts only the others.
//
// canon_bm25_pivot is canon_bm25 where a row shorter than the average
// counts as long as the average: bm25 rewards short rows, and a stub
// whose only text is a matching title outranked the document that
// decides the matter (ADR-0035).
static void canonBm25(const Fts5ExtensionApi *pApi, Fts5Context *pFts, sqlite3_context *pCtx, int nVal, sqlite3_value **apVal) {
	const double k1 = 1.2;
	const double b = 0.75;
	int rc = 0;
	int nCol = pApi->xColumnCount(pFts);
	int nWeight = nVal < nCol ? nVal : nCol;
	canonRankFn *fn = (canonRankFn*)pApi->xUserData(pFts);
	canonRankConn *conn = fn->conn;
	canonRankData *p = (canonRankData*)pApi->xGetAuxdata(pFts, 0);
	if (p == 0) {
		conn->nScored = 0;
		int nPhrase = pApi->xPhraseCount(pFts);
		int nKeep = 0;
		if (nVal > nWeight) {
			sqlite3_int64 k = sqlite3_value_int64(apVal[nWeight]);
			nKeep = k > 0 && k <= 100000 ? (int)k : 0;
		}
		int given = nVal - nWeight - 1 == nPhrase;
		sqlite3_int64 nRow = 0, nToken = 0;
		unsigned long long nByte = sizeof(canonRankData) + (nPhrase*2 + nKeep)*sizeof(double);
		p = (canonRankData*)sqlite3_malloc64(nByte);
		if (p == 0) {
			sqlite3_result_error_code(pCtx, 7); // SQLITE_NOMEM
			return;
		}
		memset(p, 0, nByte);
		p->nPhrase = nPhrase;
		p->aIDF = (double*)&p[1];
		p->aFreq = &p->aIDF[nPhrase];
		p->nKeep = nKeep;
		p->aTop = &p->aFreq[nPhrase];
		p->lastRow = -1;
		p->lastKept = -1;
		rc = pApi->xRowCount(pFts, &nRow);
		if (rc == 0) rc = pApi->xColumnTotalSize(pFts, -1, &nToken);
		if (rc == 0) p->avgdl = (double)nToken / (double)nRow;
		for (int i = 0; rc == 0 && i < nPhrase; i++) {
			sqlite3_int64 nHit = 0;
			if (given) {
				nHit = sqlite3_value_int64(apVal[nWeight + 1 + i]);
			} else {
				rc = pApi->xQueryPhrase(pFts, i, (void*)&nHit, canonCountCb);
			}
			double idf = log((nRow - nHit + 0.5) / (nHit + 0.5));
			if (idf <= 0.0) idf = 1e-6;
			p->aIDF[i] = idf;
		}
		if (rc == 0) rc = pApi->xSetAuxdata(pFts, p, sqlite3_free);
		else sqlite3_free(p);
		if (rc != 0) {
			sqlite3_result_error_code(pCtx, rc);
			return;
		}
	}
	sqlite3_int64 row = pApi->xRowid(pFts);
	if (p->lastKept >= 0 && row == p->lastRow) {
		if (p->lastKept) sqlite3_result_double(pCtx, p->lastScore);
		return;
	}
	conn->nScored++;
	double score = 0.0;
	int nInst = 0;
	memset(p->aFreq, 0, sizeof(double) * p->nPhrase);
	rc = pApi->xInstCount(pFts, &nInst);
	for (int i = 0; rc == 0 && i < nInst; i++) {
		int ip, ic, io;
		rc = pApi->xInst(pFts, i, &ip, &ic, &io);
		if (rc == 0) {
			double w = (nWeight > ic) ? sqlite3_value_double(apVal[ic]) : 1.0;
			p->aFreq[ip] += w;
		}
	}
	double D = 0.0;
	if (rc == 0) {
		int nTok;
		rc = pApi->xColumnSize(pFts, -1, &nTok);
		D = (double)nTok;
		if (fn->pivot && D < p->avgdl) D = p->avgdl;
	}
	if (rc != 0) {
		sqlite3_result_error_code(pCtx, rc);
		return;
	}
	for (int i = 0; i < p->nPhrase; i++) {
		score += p->aIDF[i] * ((p->aFreq[i] * (k1 + 1.0)) / (p->aFreq[i] + k1 * (1 - b + b * D / p->avgdl)));
	}
	score = -1.0 * score;
	p->lastRow = row;
	p->lastScore = score;
	p->lastKept = p->nKeep == 0 || canonKeep(p, score);
	if (p->lastKept) sqlite3_result_double(pCtx, score); // else NULL
}

// canon_phrases(tbl [, COL]) is the set of a query's phrases that occur
// in the row (in its column COL only, when given), as bits (phrase i is
// bit i; phrases past the 62nd are left out): a natural reading asks for
// any of its words and ranks a document by how many of them, and how
// rare, its sections hold between them, and by whether its title (column
// 0) names them all.
static void canonPhrases(const Fts5ExtensionApi *pApi, Fts5Context *pFts, sqlite3_context *pCtx, int nVal, sqlite3_value **apVal) {
	int nInst = 0;
	sqlite3_int64 mask = 0;
	int col = nVal > 0 ? (int)sqlite3_value_int64(apVal[0]) : -1;
	int rc = pApi->xInstCount(pFts, &nInst);
	for (int i = 0; rc == 0 && i < nInst; i++) {
		int ip, ic, io;
		rc = pApi->xInst(pFts, i, &ip, &ic, &io);
		if (rc == 0 && ip < 62 && (col < 0 || ic == col)) mask |= ((sqlite3_int64)1) << ip;
	}
	if (rc != 0) {
		sqlite3_result_error_code(pCtx, rc);
		return;
	}
	sqlite3_result_int64(pCtx, mask);
}

// canon_near(tbl) is the set of a query's neighbouring phrases (phrase i
// and phrase i+1, as written) that occur near each other in the row: in
// one column, either first, the second starting at most canonNearGap
// tokens after the first one's end (bit i; pairs past the 62nd are left
// out). "known at build time" holds "build" "time" next to each other; a
// natural reading ranks a document whose sections keep the query's words
// together above one where they are scattered. FTS5 lists a row's
// instances by column and offset, so each is compared with those after it
// up to the window.
#define canonNearGap 3
static void canonNear(const Fts5ExtensionApi *pApi, Fts5Context *pFts, sqlite3_context *pCtx, int nVal, sqlite3_value **apVal) {
	int nInst = 0;
	sqlite3_int64 mask = 0;
	int rc = pApi->xInstCount(pFts, &nInst);
	int nPhrase = pApi->xPhraseCount(pFts);
	if (rc == 0 && nPhrase > 1 && nInst > 1) {
		if (nInst > 4096) nInst = 4096; // bounded: the first 4,096 instances
		int *inst = (int*)sqlite3_malloc64(sizeof(int) * 3 * (sqlite3_int64)nInst);
		if (inst == 0) {
			sqlite3_result_error_code(pCtx, 7); // SQLITE_NOMEM
			return;
		}
		for (int i = 0; rc == 0 && i < nInst; i++) {
			rc = pApi->xInst(pFts, i, &inst[3*i], &inst[3*i+1], &inst[3*i+2]);
		}
		for (int i = 0; rc == 0 && i < nInst; i++) {
			int ip = inst[3*i], ic = inst[3*i+1], io = inst[3*i+2];
			int end = io + pApi->xPhraseSize(pFts, ip);
			for (int j = i + 1; j < nInst && inst[3*j+1] == ic; j++) {
				int jp = inst[3*j], jo = inst[3*j+2];
				if (jo - end >= canonNearGap) break;
				int lo = ip < jp ? ip : jp;
				if ((jp == ip + 1 || ip == jp + 1) && lo < 62) mask |= ((sqlite3_int64)1) << lo;
			}
		}
		sqlite3_free(inst);
	}
	if (rc != 0) {
		sqlite3_result_error_code(pCtx, rc);
		return;
	}
	sqlite3_result_int64(pCtx, mask);
}

// canon_hits(tbl) is how many times the query's phrases occur in the row,
// its title counted once: a natural reading adds them up over a document's
// sections for a document-level bm25 (docBM25). The title (column 0, in a
// document's first section only) usually comes back as that section's
// heading (column 1, "# Title"): of the two, only the larger count of each
// phrase counts, for a title counted again beside the heading that repeats
// it let a stub outrank the document that decides (ADR-0047). A title held
// only in the front matter, where most backlogs keep it ("## Description"
// the first heading), counts as the document's words (ADR-0091). Phrases
// past the 64th count in the heading and the text only.
#define canonHitsPhrases 64
static void canonHits(const Fts5ExtensionApi *pApi, Fts5Context *pFts, sqlite3_context *pCtx, int nVal, sqlite3_value **apVal) {
	int nInst = 0;
	sqlite3_int64 n = 0;
	int nPhrase = pApi->xPhraseCount(pFts);
	if (nPhrase > canonHitsPhrases) nPhrase = canonHitsPhrases;
	int title[canonHitsPhrases], heading[canonHitsPhrases];
	memset(title, 0, sizeof title);
	memset(heading, 0, sizeof heading);
	int rc = pApi->xInstCount(pFts, &nInst);
	for (int i = 0; rc == 0 && i < nInst; i++) {
		int ip, ic, io;
		rc = pApi->xInst(pFts, i, &ip, &ic, &io);
		if (rc != 0) break;
		if (ip < 0 || ip >= nPhrase || ic > 1) {
			if (ic > 0) n++; // the text, or a phrase past the 64th
		} else if (ic == 1) {
			heading[ip]++;
		} else {
			title[ip]++;
		}
	}
	for (int i = 0; i < nPhrase; i++) {
		n += title[i] > heading[i] ? title[i] : heading[i];
	}
	if (rc != 0) {
		sqlite3_result_error_code(pCtx, rc);
		return;
	}
	sqlite3_result_int64(pCtx, n);
}

// canon_register_rank adds canon_bm25, canon_bm25_pivot, canon_phrases, canon_hits, canon_near and
// canon_bm25_scored (how many
// rows the connection's latest canon_bm25 query scored) to the connection
// db: 0 when done.
static int canon_register_rank(void *db) {
	fts5_api *api = 0;
	sqlite3_stmt *st = 0;
	if (sqlite3_prepare_v2((sqlite3*)db, "SELECT fts5(?1)", -1, &st, 0) != 0) return -1;
	sqlite3_bind_pointer(st, 1, (void*)&api, "fts5_api_ptr", 0);
	sqlite3_step(st);
	sqlite3_finalize(st);
	if (api == 0 || api->iVersion < 2) return -2;
	canonRankAll *all = (canonRankAll*)sqlite3_malloc64(sizeof(canonRankAll));
	if (all == 0) return 7; // SQLITE_NOMEM
	canonRankConn *c = &all->conn;
	c->nScored = 0;
	all->fn[0].conn = c;
	all->fn[0].pivot = 0;
	all->fn[1].conn = c;
	all->fn[1].pivot = 1;
	// FTS5 frees the block when the connection closes.
	int rc = api->xCreateFunction(api, "canon_bm25", (void*)&all->fn[0], canonBm25, sqlite3_free);
	if (rc != 0) return rc;
	rc = api->xCreateFunction(api, "canon_bm25_pivot", (void*)&all->fn[1], canonBm25, 0);
	if (rc != 0) return rc;
	rc = api->xCreateFunction(api, "canon_phrases", 0, canonPhrases, 0);
	if (rc != 0) return rc;
	rc = api->xCreateFunction(api, "canon_hits", 0, canonHits, 0);
	if (rc != 0) return rc;
	rc = api->xCreateFunction(api, "canon_near", 0, canonNear, 0);
	if (rc != 0) return rc;
	return sqlite3_create_function((sqlite3*)db, "canon_bm25_scored", 0, 1, (void*)c, canonScored, 0, 0); // SQLITE_UTF8, not deterministic
}
*/
import "C"

import (
	"errors"
	"fmt"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// RegisterRank adds canon_bm25 (and canon_bm25_pivot, canon_phrases,
// canon_hits, canon_near and canon_bm25_scored) to a new connection: FTS5's bm25, told
// how many rows each phrase matches instead of counting them again for
// every query (index's rankExpr, ADR-0025).
func RegisterRank(c *sqlite3.SQLiteConn) error {
	db := connHandle(c)
	if db == nil {
		return errors.New("register canon_bm25: go-sqlite3 keeps its connection handle elsewhere than this canon knows")
	}
	if rc := C.canon_register_rank(db); rc != 0 {
		return fmt.Errorf("register canon_bm25: SQLite's FTS5 refused it (code %d)", int(rc))
	}
	return nil
}
