;; One word's bm25 over its matches, for recall's own ranking (recall-term-rank.ts, issue 17).
;; Built into score-one-word-wasm.ts by scripts/write-word-scorer-wasm.mjs; wasm-word-scorer.ts lays out the
;; memory and reads the answer. Every score is computed as scoreMatches computes it in
;; JavaScript, operation for operation in IEEE double precision, so both give the same bits.
;;
;; Pass one scores every match of the role (slot layout: rank-pages.ts) into the output arrays
;; and keeps the `limit` best scores of the matches without an expiry (those are always
;; eligible). Pass two keeps the matches that reach the last of those: the caller checks the
;; expiry of the few it kept and picks the answer from them alone.
(module
  (memory (export "memory") 1)

  ;; Returns how many matches were kept, or -1 when one has no slot (its slot is empty): the
  ;; caller then ranks with SQL, as the JavaScript loop does. Slot i is match i's, 4 bytes each.
  (func (export "score")
    (param $n i32) (param $docs i32) (param $freqs i32) (param $slots i32)
    (param $code i32) (param $limit i32) (param $top i32)
    (param $outDocs i32) (param $outScores i32) (param $outExpiring i32)
    (param $weights i32) (param $priorities i32)
    (param $idf f64) (param $avgdl f64) (param $k1 f64) (param $k1Plus1 f64) (param $oneMinusB f64) (param $b f64)
    (result i32)
    (local $i i32) (local $doc i32) (local $slot i32)
    (local $flags i32) (local $f f64) (local $score f64)
    (local $kept i32) (local $found i32) (local $at i32) (local $floor f64)

    ;; Pass one.
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $doc (i32.load (i32.add (local.get $docs) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $slot (i32.add (local.get $slots) (i32.shl (local.get $i) (i32.const 2))))
        (if (i32.eqz (i32.load8_u offset=2 (local.get $slot))) (then (return (i32.const -1))))
        (if (i32.eq (i32.load8_u offset=2 (local.get $slot)) (local.get $code))
          (then
            (local.set $flags (i32.load8_u offset=3 (local.get $slot)))
            (local.set $f (f64.convert_i32_s (i32.load (i32.add (local.get $freqs) (i32.shl (local.get $i) (i32.const 2))))))
            ;; idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * D) / avgdl))) * weight * priority step
            (local.set $score
              (f64.mul
                (f64.mul
                  (f64.mul (local.get $idf)
                    (f64.div
                      (f64.mul (local.get $f) (local.get $k1Plus1))
                      (f64.add (local.get $f)
                        (f64.mul (local.get $k1)
                          (f64.add (local.get $oneMinusB)
                            (f64.div
                              (f64.mul (local.get $b) (f64.convert_i32_u (i32.load16_u (local.get $slot))))
                              (local.get $avgdl)))))))
                  (f64.load (i32.add (local.get $weights) (i32.shl (i32.and (local.get $flags) (i32.const 7)) (i32.const 3)))))
                (f64.load (i32.add (local.get $priorities) (i32.shl (i32.shr_u (local.get $flags) (i32.const 4)) (i32.const 3))))))
            (i32.store (i32.add (local.get $outDocs) (i32.shl (local.get $found) (i32.const 2))) (local.get $doc))
            (f64.store (i32.add (local.get $outScores) (i32.shl (local.get $found) (i32.const 3))) (local.get $score))
            (i32.store8 (i32.add (local.get $outExpiring) (local.get $found)) (i32.and (local.get $flags) (i32.const 8)))
            (local.set $found (i32.add (local.get $found) (i32.const 1)))
            ;; Without an expiry: into the best `limit`, which are in descending order; a score
            ;; equal to one kept goes after it (the earlier match, the lower rowid, wins a tie).
            (if (i32.eqz (i32.and (local.get $flags) (i32.const 8)))
              (then
                (if (i32.or
                      (i32.lt_u (local.get $kept) (local.get $limit))
                      (f64.gt (local.get $score)
                        (f64.load (i32.add (local.get $top) (i32.shl (i32.sub (local.get $limit) (i32.const 1)) (i32.const 3))))))
                  (then
                    (if (i32.lt_u (local.get $kept) (local.get $limit))
                      (then (local.set $kept (i32.add (local.get $kept) (i32.const 1)))))
                    ;; Shift the lower ones down one place and put this score where it belongs.
                    (local.set $at (i32.sub (local.get $kept) (i32.const 1)))
                    (block $placed
                      (loop $shift
                        (br_if $placed (i32.eqz (local.get $at)))
                        (br_if $placed
                          (f64.ge
                            (f64.load (i32.add (local.get $top) (i32.shl (i32.sub (local.get $at) (i32.const 1)) (i32.const 3))))
                            (local.get $score)))
                        (f64.store (i32.add (local.get $top) (i32.shl (local.get $at) (i32.const 3)))
                          (f64.load (i32.add (local.get $top) (i32.shl (i32.sub (local.get $at) (i32.const 1)) (i32.const 3)))))
                        (local.set $at (i32.sub (local.get $at) (i32.const 1)))
                        (br $shift)))
                    (f64.store (i32.add (local.get $top) (i32.shl (local.get $at) (i32.const 3))) (local.get $score))))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))

    ;; Pass two: with fewer than `limit` always-eligible matches every match is kept.
    (if (i32.lt_u (local.get $kept) (local.get $limit)) (then (return (local.get $found))))
    (local.set $floor (f64.load (i32.add (local.get $top) (i32.shl (i32.sub (local.get $limit) (i32.const 1)) (i32.const 3)))))
    (local.set $kept (i32.const 0))
    (local.set $i (i32.const 0))
    (block $filtered
      (loop $keep
        (br_if $filtered (i32.ge_u (local.get $i) (local.get $found)))
        (local.set $score (f64.load (i32.add (local.get $outScores) (i32.shl (local.get $i) (i32.const 3)))))
        (if (f64.ge (local.get $score) (local.get $floor))
          (then
            (i32.store (i32.add (local.get $outDocs) (i32.shl (local.get $kept) (i32.const 2)))
              (i32.load (i32.add (local.get $outDocs) (i32.shl (local.get $i) (i32.const 2)))))
            (f64.store (i32.add (local.get $outScores) (i32.shl (local.get $kept) (i32.const 3))) (local.get $score))
            (i32.store8 (i32.add (local.get $outExpiring) (local.get $kept))
              (i32.load8_u (i32.add (local.get $outExpiring) (local.get $i))))
            (local.set $kept (i32.add (local.get $kept) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $keep)))
    (local.get $kept)))
