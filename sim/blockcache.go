package sim

import (
	"container/list"
	"encoding/binary"
	"hash/fnv"
	"io"
	"sync"
	"time"
)

// blockCache is an engine's automatic prefix cache, as vLLM keeps one: a
// prompt's words (a simulator token each) in blocks of a fixed size, each
// block keyed by its words and the key of the block before it, so a block
// is found only when the whole start of the prompt before it is too. A
// request's cached tokens are its leading blocks found, times the block
// size; its full blocks are remembered once its prefill is done. It holds
// at most a bounded number of blocks, the least recently used forgotten
// first; a prompt's blocks are used last to first, so its later blocks go
// before its first (as vLLM frees them), which other prompts share more.
type blockCache struct {
	mu     sync.Mutex
	tokens int        // tokens held at most (blockCacheTokens when 0)
	lru    *list.List // of uint64 keys; the front most recently used
	at     map[uint64]*list.Element
}

// blockCacheTokens is how many prompt tokens the block cache holds at
// most (a 1M-token KV cache, an 8B model's on one large GPU).
const blockCacheTokens = 1 << 20

// blockKeys are the keys of the full blocks of size b of a prompt's words
// for model: a partial last block is never cached.
func blockKeys(model string, words []string, b int) []uint64 {
	if b <= 0 {
		return nil
	}
	keys := make([]uint64, len(words)/b)
	h := fnv.New64a()
	_, _ = io.WriteString(h, model)
	prev := h.Sum64()
	var buf [8]byte
	for i := range keys {
		h.Reset()
		binary.LittleEndian.PutUint64(buf[:], prev)
		h.Write(buf[:])
		for _, w := range words[i*b : (i+1)*b] {
			_, _ = io.WriteString(h, w)
			h.Write([]byte{' '})
		}
		prev = h.Sum64()
		keys[i] = prev
	}
	return keys
}

// lookup is how many of keys, from the first, the cache holds.
func (c *blockCache) lookup(keys []uint64) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, k := range keys {
		if _, ok := c.at[k]; !ok {
			return i
		}
	}
	return len(keys)
}

// remember holds keys, blocks of size b, as used now: the first the most
// recently, forgetting the least recently used beyond the cache's size.
func (c *blockCache) remember(keys []uint64, b int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru == nil {
		c.lru, c.at = list.New(), map[uint64]*list.Element{}
	}
	limit := max(orDefault(c.tokens, blockCacheTokens)/b, 1)
	for i := len(keys) - 1; i >= 0; i-- {
		if e, ok := c.at[keys[i]]; ok {
			c.lru.MoveToFront(e)
			continue
		}
		c.at[keys[i]] = c.lru.PushFront(keys[i])
	}
	for c.lru.Len() > limit {
		e := c.lru.Back()
		delete(c.at, e.Value.(uint64))
		c.lru.Remove(e)
	}
}

// held is the number of blocks the cache holds.
func (c *blockCache) held() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.at)
}

// cacheOf is what the server's caches hold of q's prompt, for profile p:
// the cached tokens (the block cache's, else the prefix cache's, else the
// fixed CachedTokens), and what remembers its blocks once its prefill is
// done (nil: nothing to remember then).
func (s *Server) cacheOf(p Profile, q request) (cached int, remember func()) {
	switch b := p.Quirks.BlockCache; {
	case b > 0:
		keys := blockKeys(q.model, q.words, b)
		cached = s.blocks.lookup(keys) * b
		return cached, sync.OnceFunc(func() { s.blocks.remember(keys, b) })
	case p.Quirks.PrefixCache:
		return s.cache.hit(q.prefixes), nil
	case p.Quirks.CachedTokens > 0:
		return min(p.Quirks.CachedTokens, q.promptTokens), nil
	}
	return 0, nil
}

// promptTTFT is a first step's TTFT for a prompt of which cached tokens
// are in a cache: with PrefillPerToken, the TTFT drawn plus the prefill
// of the tokens not cached (scaled as a TTFT is); else as cachedTTFT has
// it.
func (p Profile) promptTTFT(pl *plan, prompt, cached int) time.Duration {
	if p.PrefillPerToken <= 0 {
		return p.cachedTTFT(pl.ttft, prompt, cached)
	}
	return pl.ttft + pl.scaleTTFT(time.Duration(max(prompt-cached, 0))*p.PrefillPerToken)
}

// prefilled is called when the answer's prefill is done (before its first
// output is written, or at its end when it has none): the block cache
// then holds its prompt's blocks.
func (rs response) prefilled() {
	if rs.remember != nil {
		rs.remember()
	}
}
