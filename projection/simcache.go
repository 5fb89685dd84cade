package projection

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"sort"
	"time"
)

// The simulation replays thousands of turns, and request k carries the k-1 turns before it: building every request
// as New does (and hashing every part of it) costs the square of the session's length. Instead, each layout of
// each session keeps its history as one growing sequence of parts, each part counted and hashed once; a request is
// a view of that sequence (its first n parts) between a head (the tools and the system parts) and a tail (the
// turn). A prefix of a request is known by a polynomial hash of its parts' hashes, which a view computes in
// constant time for any length from the head's and the history's running hashes, so that a cache lookup never
// walks the history. The reference implementation that builds each request whole is kept in the tests, which
// compare the two.

// phash is a polynomial hash of a sequence of part hashes, modulo the Mersenne prime 2^61-1 under two bases.
type phash [2]uint64

const mersenne61 = 1<<61 - 1

var phashBases = [2]uint64{0x1f3a5c7e9b2d4f61 % mersenne61, 0x2c4e6a8b0d1f3e57 % mersenne61}

func mulmod61(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	r := (lo & mersenne61) + (lo >> 61) + (hi << 3)
	r = (r & mersenne61) + (r >> 61)
	if r >= mersenne61 {
		r -= mersenne61
	}
	return r
}

func submod61(a, b uint64) uint64 {
	if a >= b {
		return a - b
	}
	return a + mersenne61 - b
}

func addmod61(a, b uint64) uint64 {
	r := a + b
	if r >= mersenne61 {
		r -= mersenne61
	}
	return r
}

// powers holds the bases' powers, grown on demand.
type powers struct{ p [2][]uint64 }

func (pw *powers) at(n int) [2]uint64 {
	for len(pw.p[0]) <= n {
		for k := range pw.p {
			if len(pw.p[k]) == 0 {
				pw.p[k] = append(pw.p[k], 1)
				continue
			}
			pw.p[k] = append(pw.p[k], mulmod61(pw.p[k][len(pw.p[k])-1], phashBases[k]))
		}
	}
	return [2]uint64{pw.p[0][n], pw.p[1][n]}
}

// then returns the hash of the sequence h followed by a sequence of n parts whose hash is g.
func (pw *powers) then(h, g phash, n int) phash {
	b := pw.at(n)
	return phash{addmod61(mulmod61(h[0], b[0]), g[0]), addmod61(mulmod61(h[1], b[1]), g[1])}
}

// partHash identifies a part by what the provider's cache compares: its kind, role, message and bytes. It is never 0,
// so that no part hashes like an empty sequence.
func partHash(p *PlacedPart) phash {
	sum := sha256.New()
	fmt.Fprintf(sum, "%d\x00%s\x00%d\x00", p.Kind, p.Role, p.Message)
	io.WriteString(sum, p.Text)
	return digestHash(sum.Sum(nil))
}

func digestHash(d []byte) phash {
	return phash{binary.LittleEndian.Uint64(d[0:8])%(mersenne61-1) + 1, binary.LittleEndian.Uint64(d[8:16])%(mersenne61-1) + 1}
}

// seq is a sequence of parts with their running hashes and token counts: h[i] and tok[i] cover parts[:i].
type seq struct {
	parts []PlacedPart
	h     []phash
	tok   []int
}

func newSeq() *seq { return &seq{h: []phash{{}}, tok: []int{0}} }

func (s *seq) push(pw *powers, p PlacedPart, id phash) {
	s.parts = append(s.parts, p)
	n := len(s.h) - 1
	s.h = append(s.h, pw.then(s.h[n], id, 1))
	s.tok = append(s.tok, s.tok[n]+p.Tokens)
}

// view is one request: head's parts, then nh parts of hist from part from (the history less what a budget
// dropped), then tail (when hasTail).
type view struct {
	pw      *powers
	head    *seq
	hist    *seq
	from    int
	nh      int
	tail    PlacedPart
	tailID  phash
	hasTail bool
	// lastHistory is the index of the history's last part, -1 without history.
	lastHistory int
}

func (v *view) Len() int {
	n := len(v.head.parts) + v.nh
	if v.hasTail {
		n++
	}
	return n
}

func (v *view) At(i int) *PlacedPart {
	h := len(v.head.parts)
	switch {
	case i < h:
		return &v.head.parts[i]
	case i < h+v.nh:
		return &v.hist.parts[v.from+i-h]
	}
	return &v.tail
}

func (v *view) Prefix(i int) int {
	h := len(v.head.parts)
	switch {
	case i < h:
		return v.head.tok[i+1]
	case i < h+v.nh:
		return v.head.tok[h] + v.hist.tok[v.from+i-h+1] - v.hist.tok[v.from]
	}
	return v.head.tok[h] + v.histTokens() + v.tail.Tokens
}

func (v *view) histTokens() int {
	if v.hist == nil {
		return 0
	}
	return v.hist.tok[v.from+v.nh] - v.hist.tok[v.from]
}

// histHash is the hash of the view's first m history parts.
func (v *view) histHash(m int) phash {
	a, b := v.hist.h[v.from], v.hist.h[v.from+m]
	p := v.pw.at(m)
	return phash{submod61(b[0], mulmod61(a[0], p[0])), submod61(b[1], mulmod61(a[1], p[1]))}
}

// chain is the hash of the request's parts up to and including part i.
func (v *view) chain(i int) phash {
	h := len(v.head.parts)
	if i < h {
		return v.head.h[i+1]
	}
	c := v.head.h[h]
	if v.nh > 0 {
		m := min(i-h+1, v.nh)
		c = v.pw.then(c, v.histHash(m), m)
	}
	if i == h+v.nh {
		c = v.pw.then(c, v.tailID, 1)
	}
	return c
}

// entryKey is a cached prefix: its hash and its length in parts.
type entryKey struct {
	h phash
	n int
}

// entry is an explicit cache entry: when it was last used (or written, where hits do not renew it) and how long it
// lives.
type entry struct {
	used, ttl time.Duration
}

// cache is a provider's prompt cache as the simulation sees it: the prefixes written so far and when each was last
// used. An entry lives for its lifetime from its last use (from its writing where the provider does not renew it
// on a hit).
type cache struct {
	m        Model
	mode     CacheMode
	explicit bool
	min      int
	read     float64
	// write is the price of a written token; 1 where writing is not billed apart (DashScope's implicit cache).
	write float64
	// ttl is the lifetime chosen; refresh whether a hit renews an entry.
	ttl     TTL
	refresh bool
	// entries are the explicit cache's prefixes, each at a marker; recent are the latest written, for markers
	// matched without a lookback (Model.Considered).
	entries map[entryKey]entry
	recent  []entryKey
	// root is the automatic cache's prefixes: every prefix of every request, as a tree whose edges are runs of
	// one request's parts.
	root *rnode
}

func newCache(m Model, mode CacheMode, ttl TTL) *cache {
	c := &cache{m: m, mode: mode, min: m.MinCacheTokens, read: m.CacheRead, write: m.WritePrice(ttl), ttl: ttl,
		refresh: !m.NoRefresh, entries: map[entryKey]entry{}, root: &rnode{}}
	c.explicit = mode == CacheExplicit || mode == CacheAutomatic && m.Matching != Prefix
	if m.Provider == Gemini && mode == CacheImplicit {
		c.explicit = false
		c.ttl = TTL5m // no lifetime is promised: "send requests with a similar prefix in a short amount of time"
	}
	if mode == CacheImplicit && m.Matching != Prefix {
		c.min, c.read, c.write = m.ImplicitMinCacheTokens, m.ImplicitCacheRead, 1
	}
	return c
}

func (c *cache) alive(e entry, now time.Duration) bool {
	return e.ttl <= 0 || now-e.used < e.ttl
}

// prefixTTL is how long the automatic cache keeps an unused prefix.
func (c *cache) prefixTTL() time.Duration {
	if d := c.ttl.Duration(); d > 0 {
		return d
	}
	return 24 * time.Hour // no choice offered (DeepSeek: "hours to days")
}

// request counts one request sent at now, with its cache markers, and adds what it writes to the cache.
func (c *cache) request(v *view, markers []int, chosen TTL, now time.Duration) Usage {
	u := Usage{InputTokens: v.Prefix(v.Len() - 1)}
	if c.explicit {
		c.explicitRequest(v, markers, chosen, now, &u)
	} else {
		c.prefixRequest(v, now, &u)
	}
	u.UncachedTokens = u.InputTokens - u.CacheReadTokens - u.CacheWriteTokens
	return u
}

// explicitRequest: each marker reads the longest prefix cached at it or at one of the Lookback parts before it
// (or, where the model matches without a lookback, at one of the latest Considered entries); the prefix up to the
// last marker that reaches the minimum is written, less what was read, each run of it at the price of the
// lifetime of the marker that ends it.
func (c *cache) explicitRequest(v *view, markers []int, chosen TTL, now time.Duration, u *Usage) {
	stale := 0
	read := func(j int) (ok bool) {
		k := entryKey{v.chain(j), j + 1}
		e, found := c.entries[k]
		if !found {
			return false
		}
		stale = max(stale, c.limit(v.Prefix(j))) // what would be read had nothing expired
		if !c.alive(e, now) {
			return false
		}
		u.CacheReadTokens = max(u.CacheReadTokens, c.limit(v.Prefix(j)))
		if c.refresh {
			e.used = now
			c.entries[k] = e
		}
		return true
	}
	for _, i := range markers {
		if c.m.Considered > 0 {
			for _, k := range c.recent {
				if k.n <= i+1 && v.chain(k.n-1) == k.h {
					read(k.n - 1)
				}
			}
			continue
		}
		for j := i; j >= 0 && j >= i-c.m.Lookback; j-- {
			if read(j) {
				break
			}
		}
	}
	done := u.CacheReadTokens // the tokens up to here are read or written already
	for _, i := range markers {
		if v.Prefix(i) < c.min {
			continue
		}
		u.BeyondCapTokens = max(u.BeyondCapTokens, v.Prefix(i)-c.limit(v.Prefix(i)))
		end := c.limit(v.Prefix(i))
		if end <= done {
			continue
		}
		t := markerTTL(c.m, c.mode, chosen, v.At(i))
		n := end - done
		u.CacheWriteTokens += n
		u.WriteCost += float64(n) * c.m.WritePrice(t)
		if t != c.m.Lifetime(TTLDefault) && len(c.m.TTLs) > 1 {
			u.LongTTLWriteTokens += n
		}
		done = end
	}
	u.ExpiredTokens = min(max(stale-u.CacheReadTokens, 0), u.CacheWriteTokens)
	for _, i := range markers {
		if v.Prefix(i) < c.min {
			continue
		}
		k := entryKey{v.chain(i), i + 1}
		t := markerTTL(c.m, c.mode, chosen, v.At(i))
		e, ok := c.entries[k]
		if ok && c.alive(e, now) && !c.refresh {
			continue // a live entry that hits do not renew keeps its writing time
		}
		if !ok || !c.alive(e, now) {
			if c.m.StoragePerHour > 0 {
				// An explicit cache is kept, and paid for, its whole lifetime from its writing.
				u.StorageCost += float64(v.Prefix(i)) * t.Duration().Hours() * c.m.StoragePerHour
			}
			if c.m.Considered > 0 {
				c.recent = append(c.recent, k)
				if len(c.recent) > c.m.Considered {
					c.recent = c.recent[1:]
				}
			}
		}
		c.entries[k] = entry{used: now, ttl: t.Duration()}
	}
}

// limit is what the cache holds of a prefix of n tokens: all of it, or the model's first MaxCacheTokens (Amazon
// Nova's 20,000); the tokens after them are never read or written, and are sent uncached.
func (c *cache) limit(n int) int {
	if c.m.MaxCacheTokens > 0 {
		return min(n, c.m.MaxCacheTokens)
	}
	return n
}

// cacheable is the tokens automatic caching reads of a shared prefix of n tokens: from the minimum on, in steps,
// up to the model's limit.
func (c *cache) cacheable(n int) int {
	if n < c.min || c.min <= 0 {
		return 0
	}
	step := max(c.m.Step, 1)
	return c.limit(c.min + (n-c.min)/step*step)
}

// prefixRequest: the longest run of leading parts some earlier request also began with, and that is still cached,
// is read, from the minimum on, in steps; every prefix of the request is cached for later ones. Matching whole
// parts (messages) makes the count a lower bound: a provider may also match the start of the first part that
// differs. Where the model bills writing the cache (a cache_write price other than 1), what is cached anew is
// counted as written; otherwise it is uncached input.
func (c *cache) prefixRequest(v *view, now time.Duration, u *Usage) {
	shared, alive := c.root.lookup(v, c, now)
	if alive > 0 {
		u.CacheReadTokens = c.cacheable(v.Prefix(alive - 1))
	}
	stale := 0
	if shared > 0 {
		stale = c.cacheable(v.Prefix(shared - 1))
	}
	if c.write != 1 {
		u.CacheWriteTokens = max(c.cacheable(u.InputTokens)-u.CacheReadTokens, 0)
		u.WriteCost = float64(u.CacheWriteTokens) * c.write
	}
	if u.InputTokens >= c.min && c.min > 0 {
		u.BeyondCapTokens = u.InputTokens - c.limit(u.InputTokens)
	}
	u.ExpiredTokens = max(stale-u.CacheReadTokens, 0)
	c.root.insert(v, c, now)
}

// rnode is a node of the automatic cache's tree. The edge into it is parts [start, end) of owner, a request whose
// prefix up to end the node stands for; used is when that run was last used (read or written).
type rnode struct {
	owner      *view
	start, end int
	used       time.Duration
	children   map[phash]*rnode // by the hash of the request's prefix through the child's first part
	// units are the positions inside the edge where a unit ends (Model.ReplyUnits), ascending; the edge's end is
	// one too.
	units []int
}

func (c *cache) aliveAt(used, now time.Duration) bool {
	return now-used < c.prefixTTL()
}

// unitEnd is the last unit end of n's edge at or before e, or -1.
func (n *rnode) unitEnd(e int) int {
	if e >= n.end {
		return n.end
	}
	i := sort.SearchInts(n.units, e+1) - 1
	if i < 0 {
		return -1
	}
	return n.units[i]
}

// match returns how far v agrees with the edge into n: the largest e in [n.start+1, min(n.end, v.Len())] with v's
// prefix through part e-1 that of n's owner. The edge's first part agrees (it is the child's key).
func (n *rnode) match(v *view) int {
	lo, hi := n.start+1, min(n.end, v.Len())
	for lo < hi { // the largest e in [lo, hi] that agrees: agreement is a prefix property
		mid := (lo + hi + 1) / 2
		if v.chain(mid-1) == n.owner.chain(mid-1) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// lookup returns the number of v's leading parts that some earlier request shares (shared), and of those still
// cached (alive).
func (root *rnode) lookup(v *view, c *cache, now time.Duration) (shared, alive int) {
	n := root
	for shared < v.Len() {
		child := n.children[v.chain(shared)]
		if child == nil {
			break
		}
		e := child.match(v)
		if c.m.ReplyUnits {
			e = child.unitEnd(e) // only whole units are read
			if e < 0 {
				break
			}
		}
		if c.aliveAt(child.used, now) {
			alive = e
		}
		shared = e
		if e < child.end {
			break
		}
		n = child
	}
	return shared, alive
}

// insert adds v's prefixes, used at now: the edges it runs along are used again (written again where they had
// expired), an edge it leaves midway is split there, and its remaining parts become a new edge, or lengthen the
// edge of the request it extends.
func (root *rnode) insert(v *view, c *cache, now time.Duration) {
	n, at := root, 0
	touch := func(x *rnode) {
		if c.refresh || !c.aliveAt(x.used, now) {
			x.used = now
		}
	}
	for at < v.Len() {
		child := n.children[v.chain(at)]
		if child == nil {
			break
		}
		e := child.match(v)
		if e < child.end {
			// Split: the run [child.start, e) is v's too; the rest keeps its owner, its time and its children.
			rest := &rnode{owner: child.owner, start: e, end: child.end, used: child.used, children: child.children}
			k := sort.SearchInts(child.units, e+1)
			rest.units = append([]int(nil), child.units[k:]...)
			child.units = child.units[:k]
			if k > 0 && child.units[k-1] == e {
				child.units = child.units[:k-1] // the edge's end is a unit anyway
			}
			child.end, child.children = e, map[phash]*rnode{child.owner.chain(e): rest}
		}
		touch(child)
		n, at = child, e
	}
	if at == v.Len() {
		return
	}
	if n != root && len(n.children) == 0 && c.refresh {
		if c.m.ReplyUnits {
			n.units = append(n.units, n.end) // the request that ended here stays a unit
		}
		n.owner, n.end, n.used = v, v.Len(), now // v extends the request that ended here
		return
	}
	if n.children == nil {
		n.children = map[phash]*rnode{}
	}
	n.children[v.chain(at)] = &rnode{owner: v, start: at, end: v.Len(), used: now}
}
