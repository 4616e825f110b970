cd "$(dirname "$0")"
timeout 200 bin/test_gpu_backend --gtest_filter='CudaPerks*:*Perks*:*Persistent*' > $OUT/test_perks_after_review.log 2>&1; echo "rc=$?"
grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/test_perks_after_review.log | head; head -2 $OUT/test_perks_after_review.log
