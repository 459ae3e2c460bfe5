package org.leafid.core.shard;

/**
 * The highest index known to be issued per (app, shard), kept where every instance sees it (a
 * table of ours beside {@code id_alloc}). The Redis buffer checks popped indexes against it, so
 * that a Redis replica promoted while it lagged, whose lists still hold indexes already popped
 * and issued, cannot make the server issue them again.
 */
public interface IssuedWatermarks {

    /** The highest index recorded as issued; 0 when none is. */
    long highest(int appId, int shardId);

    /** Records that indexes up to {@code issued} are issued; a lower value than the stored one changes nothing. */
    void advance(int appId, int shardId, long issued);
}
