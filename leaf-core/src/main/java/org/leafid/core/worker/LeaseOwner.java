package org.leafid.core.worker;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The one process that holds a worker-id lease: its address and a random token drawn when the
 * process builds its registry. An address alone names no process: two servers bound to the same
 * ip:port (two hosts' containers at 172.17.0.2:8080, or two interfaces on one port) are two
 * owners, and a registry compares the whole owner before it renews or releases a lease.
 *
 * @param token random, never reused by another process; not a secret, only an identity
 */
public record LeaseOwner(InstanceAddress address, String token) {

    public LeaseOwner {
        if (address == null) {
            throw new IllegalArgumentException("address must not be null");
        }
        if (token == null || token.isEmpty() || token.indexOf('/') >= 0) {
            throw new IllegalArgumentException("token must be non-empty and hold no '/': " + token);
        }
    }

    /** A new owner for this process of {@code address}: 64 random bits, so no two processes draw the same. */
    public static LeaseOwner newProcess(InstanceAddress address) {
        byte[] bits = new byte[8];
        new SecureRandom().nextBytes(bits);
        return new LeaseOwner(address, HexFormat.of().formatHex(bits));
    }

    /** {@code ip:port/token}, how a registry stores the owner: an operator reading it sees the address. */
    public String key() {
        return address.key() + "/" + token;
    }

    @Override
    public String toString() {
        return key();
    }
}
