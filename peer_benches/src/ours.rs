// filled in by the sparse team
