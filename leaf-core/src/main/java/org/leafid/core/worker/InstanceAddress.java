package org.leafid.core.worker;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;

/** The ip:port that names this instance to the worker-id holders, as in Leaf. */
public record InstanceAddress(String ip, int port) {

    public InstanceAddress {
        if (ip == null || ip.isBlank()) {
            throw new IllegalArgumentException("ip must not be empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be in 1..65535: " + port);
        }
    }

    /** {@code ip:port}, the key of Leaf's {@code workIdMap} and ZooKeeper node names. */
    public String key() {
        return ip + ":" + port;
    }

    /**
     * The first site-local, then any non-loopback IPv4 address of an interface that is up, or
     * 127.0.0.1 when the machine has none.
     */
    public static String detectIp() {
        String fallback = null;
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback() || nic.isVirtual()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                        if (address.isSiteLocalAddress()) {
                            return address.getHostAddress();
                        }
                        fallback = fallback == null ? address.getHostAddress() : fallback;
                    }
                }
            }
        } catch (SocketException e) {
            throw new IllegalStateException("Could not list network interfaces to find this instance's IP; "
                    + "set leaf.snowflake.ip", e);
        }
        return fallback != null ? fallback : "127.0.0.1";
    }

    @Override
    public String toString() {
        return key();
    }
}
