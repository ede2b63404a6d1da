"""TrustUQA core: trustworthy question answering over tables, KGs and temporal KGs."""
