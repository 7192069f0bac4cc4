/**
 * VectorJCE: a pure-Java JCA provider of AES, Twofish and Serpent in ECB, CBC, CTR, LRW and XTS.
 * Vector API kernels are used when the application adds {@code jdk.incubator.vector}.
 */
module org.vectorjce {
    requires static jdk.incubator.vector;
    exports org.vectorjce;
    provides java.security.Provider with org.vectorjce.VectorJceProvider;
}
